//! Failed logins per client address: after too many in a time window,
//! further logins from that address are refused until the window has
//! passed, so that nobody can try passwords at the speed of the network
//! (each try also costs the server an argon2 hash).
//!
//! Counted per address, not per account: a lock on the account would let
//! anyone lock its owner out. Behind a reverse proxy the address is the
//! forwarded client's ([`crate::forwarded`]). Windows are fixed: the first
//! failure opens one, and it closes [`Throttle::window`] later. The map
//! forgets closed windows when it grows, so it stays bounded by the
//! addresses that failed within one window.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Failed logins counted per address.
#[derive(Debug)]
pub struct Throttle {
    /// Failures allowed per address and window.
    limit: u32,
    /// How long a window lasts.
    window: Duration,
    /// Per address: when its window opened, failures in it.
    seen: Mutex<HashMap<IpAddr, (Instant, u32)>>,
}

/// Entries at which closed windows are swept out.
const SWEEP_AT: usize = 4096;

impl Throttle {
    /// `limit` failures per `window` and address (0: no limit).
    pub fn new(limit: u32, window: Duration) -> Throttle {
        Throttle {
            limit,
            window,
            seen: Mutex::new(HashMap::new()),
        }
    }

    /// How long a window lasts.
    pub fn window(&self) -> Duration {
        self.window
    }

    /// `Err(wait)` when `ip` has used up its failures: the time until its
    /// window closes.
    pub fn check(&self, ip: IpAddr, now: Instant) -> Result<(), Duration> {
        if self.limit == 0 {
            return Ok(());
        }
        let Ok(seen) = self.seen.lock() else {
            return Ok(());
        };
        match seen.get(&ip) {
            Some(&(start, n)) if n >= self.limit => {
                let end = start + self.window;
                if now < end { Err(end - now) } else { Ok(()) }
            }
            _ => Ok(()),
        }
    }

    /// Count a failed login of `ip`.
    pub fn failed(&self, ip: IpAddr, now: Instant) {
        if self.limit == 0 {
            return;
        }
        let Ok(mut seen) = self.seen.lock() else {
            return;
        };
        if seen.len() >= SWEEP_AT {
            let window = self.window;
            seen.retain(|_, (start, _)| now.saturating_duration_since(*start) < window);
        }
        let entry = seen.entry(ip).or_insert((now, 0));
        if now.saturating_duration_since(entry.0) >= self.window {
            *entry = (now, 0);
        }
        entry.1 = entry.1.saturating_add(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_is_refused_after_its_failures_until_the_window_closes() {
        let t = Throttle::new(3, Duration::from_secs(600));
        let a: IpAddr = "198.51.100.1".parse().expect("ip");
        let b: IpAddr = "198.51.100.2".parse().expect("ip");
        let t0 = Instant::now();
        for i in 0..3 {
            assert_eq!(t.check(a, t0), Ok(()), "refused after {i} failures");
            t.failed(a, t0 + Duration::from_secs(i));
        }
        assert_eq!(
            t.check(a, t0 + Duration::from_secs(100)),
            Err(Duration::from_secs(500))
        );
        // Another address is not affected.
        assert_eq!(t.check(b, t0 + Duration::from_secs(100)), Ok(()));
        // The window closes; the count starts again.
        let later = t0 + Duration::from_secs(600);
        assert_eq!(t.check(a, later), Ok(()));
        t.failed(a, later);
        assert_eq!(t.check(a, later), Ok(()));
    }

    #[test]
    fn no_limit_never_refuses_and_the_map_forgets_closed_windows() {
        let open = Throttle::new(0, Duration::from_secs(1));
        let ip: IpAddr = "198.51.100.1".parse().expect("ip");
        let t0 = Instant::now();
        for _ in 0..100 {
            open.failed(ip, t0);
        }
        assert_eq!(open.check(ip, t0), Ok(()));
        let t = Throttle::new(1, Duration::from_secs(1));
        for i in 0..SWEEP_AT as u32 {
            t.failed(IpAddr::from(i.to_be_bytes()), t0);
        }
        t.failed(
            "203.0.113.1".parse().expect("ip"),
            t0 + Duration::from_secs(2),
        );
        assert_eq!(t.seen.lock().map(|m| m.len()).unwrap_or(0), 1);
    }
}
