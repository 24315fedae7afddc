func.func @f(%a: i32) -> i64 {
  // expected-error @+1 {{this message is not the one produced}}
  return %a : i32
}

// -----

func.func @g() {
  // expected-error @+1 {{never produced}}
  return
}

// -----

// expected-error-re @+1 {{'func.return' op type of return operand {{[0-9]+}} ('i32')}}
func.func @h(%a: i32) -> i64 {
  return %a : i32
}
