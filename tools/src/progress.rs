//! Progress on stderr for long work, drawn only on a terminal: the compile's
//! phases and the run's stages as they start (`driver::phases`); the node
//! tests' progress is the conformance runner's (`conformance::suite`).

use std::sync::Mutex;

/// The spinner the phase observer draws into, while a [`Phases`] is alive.
static SPINNER: Mutex<Option<indicatif::ProgressBar>> = Mutex::new(None);

/// One line on stderr saying what the compile or the run is doing now and for
/// how long, from its creation until it is dropped; nothing when stderr is
/// not a terminal or `off`.
pub struct Phases;

impl Phases {
    pub fn show(off: bool) -> Phases {
        use std::io::IsTerminal;
        if off || !std::io::stderr().is_terminal() {
            return Phases;
        }
        static OBSERVING: std::sync::Once = std::sync::Once::new();
        OBSERVING.call_once(|| {
            driver::phases::observe(|what| {
                if let Some(b) = SPINNER.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
                    b.set_message(what.to_string());
                }
            })
        });
        let b = indicatif::ProgressBar::new_spinner();
        b.set_style(indicatif::ProgressStyle::with_template("{spinner} {elapsed:>4} {wide_msg}").expect("a valid template"));
        b.enable_steady_tick(std::time::Duration::from_millis(120));
        *SPINNER.lock().unwrap_or_else(|e| e.into_inner()) = Some(b);
        Phases
    }
}

impl Drop for Phases {
    fn drop(&mut self) {
        if let Some(b) = SPINNER.lock().unwrap_or_else(|e| e.into_inner()).take() {
            b.finish_and_clear();
        }
    }
}

/// A line on stderr that does not tear the spinner (drawn again below it).
pub fn note(line: &str) {
    match SPINNER.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
        Some(b) => b.suspend(|| eprintln!("{}", line)),
        None => eprintln!("{}", line),
    }
}
