func.func private @a()

// -----

func.func @b() {
  %x = arith.constant 1 : i32
  return %x : i32
}
