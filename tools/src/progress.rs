//! Progress on stderr for long work, drawn only on a terminal: the compile's
//! phases and the run's stages as they start (`runtime::phases`), and the
//! node tests as they finish.

use std::sync::Mutex;
use std::time::Instant;

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

/// Progress on stderr: a bar with the running test's name on a terminal, else
/// a plain line every ten seconds.
pub struct TestProgress {
    bar: Option<indicatif::ProgressBar>,
    total: usize,
    done: usize,
    last_line: Instant,
}

impl TestProgress {
    pub fn new(total: usize) -> TestProgress {
        use std::io::IsTerminal;
        let bar = std::io::stderr().is_terminal().then(|| {
            let b = indicatif::ProgressBar::new(total as u64);
            b.set_style(indicatif::ProgressStyle::with_template("[{pos}/{len}] {elapsed_precise} {wide_msg}").expect("a valid template"));
            b
        });
        TestProgress { bar, total, done: 0, last_line: Instant::now() }
    }
    pub fn finished(&mut self, name: &str, failed: usize) {
        self.done += 1;
        match &self.bar {
            Some(b) => {
                b.set_position(self.done as u64);
                b.set_message(format!("{} ({} failed)", name, failed));
            }
            None if self.last_line.elapsed().as_secs() >= 10 || self.done == self.total => {
                eprintln!("[{}/{}] {} ({} failed so far)", self.done, self.total, name, failed);
                self.last_line = Instant::now();
            }
            None => {}
        }
    }
    pub fn clear(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}
