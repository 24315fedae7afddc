//! A child process run to its end or killed at a deadline, its output read
//! while it runs (so a chatty child never blocks on a full pipe).

use std::io::Read;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// What a child did: its status (`None`: killed at the deadline, or lost),
/// stdout, stderr and the wall time in seconds.
pub struct Finished {
    pub status: Option<ExitStatus>,
    pub stdout: String,
    pub stderr: String,
    pub secs: f64,
}

/// Runs `cmd` (stdin closed, stdout and stderr captured) for at most `timeout`.
pub fn run(mut cmd: Command, timeout: Duration) -> Result<Finished, String> {
    let start = Instant::now();
    let mut child = cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().map_err(|e| format!("could not start {:?}: {}", cmd.get_program(), e))?;
    let drain = |r: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut b = vec![];
            if let Some(mut r) = r {
                let _ = r.read_to_end(&mut b);
            }
            String::from_utf8_lossy(&b).into_owned()
        })
    };
    let out = drain(child.stdout.take().map(|r| Box::new(r) as Box<dyn Read + Send>));
    let err = drain(child.stderr.take().map(|r| Box::new(r) as Box<dyn Read + Send>));
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) if start.elapsed() >= timeout => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
        }
    };
    let secs = start.elapsed().as_secs_f64();
    Ok(Finished { status, stdout: out.join().unwrap_or_default(), stderr: err.join().unwrap_or_default(), secs })
}
