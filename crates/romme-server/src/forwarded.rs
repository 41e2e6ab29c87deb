//! Who a request comes from when the server runs behind a reverse proxy
//! that terminates TLS (Caddy, nginx): the TCP peer is then the proxy, and
//! the client's address, the host name it asked for and whether it used
//! https are in the proxy's `X-Forwarded-For`, `X-Forwarded-Host` and
//! `X-Forwarded-Proto` headers.
//!
//! Anyone can write those headers, so they are believed only when the peer
//! is one of the configured trusted proxies
//! ([`crate::ServerConfig::trusted_proxies`]); from every other peer they
//! are ignored and the request is what the TCP connection says. With a
//! chain of trusted proxies, the client is the right-most address in
//! `X-Forwarded-For` that is not itself a trusted proxy (each proxy appends
//! the address it saw, so the entries further left were written by the
//! client and prove nothing).

use std::net::{IpAddr, SocketAddr};

use axum::http::HeaderMap;

/// What the server believes about a request's client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Client {
    /// The client's address: the peer, or the forwarded one.
    pub ip: IpAddr,
    /// The host the client asked for, as a trusted proxy forwarded it.
    pub forwarded_host: Option<String>,
    /// The client used https (a trusted proxy said so).
    pub https: bool,
}

/// The client of a request from `peer` with these headers.
pub fn client(peer: IpAddr, headers: &HeaderMap, trusted: &[IpAddr]) -> Client {
    let plain = Client {
        ip: peer,
        forwarded_host: None,
        https: false,
    };
    if !trusted.contains(&peer) {
        return plain;
    }
    // Every X-Forwarded-For line, in order, as one list.
    let hops: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .collect();
    let mut ip = peer;
    for hop in hops.iter().rev() {
        // An entry that is no address ends the trust: the last address
        // vouched for is the client.
        let Some(addr) = parse_hop(hop) else { break };
        ip = addr;
        if !trusted.contains(&addr) {
            break;
        }
    }
    let first = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(',').next())
            .map(str::trim)
            .filter(|v| !v.is_empty())
    };
    Client {
        ip,
        forwarded_host: first("x-forwarded-host").map(str::to_string),
        https: first("x-forwarded-proto").is_some_and(|p| p.eq_ignore_ascii_case("https")),
    }
}

/// An address as proxies write it: `203.0.113.7`, `2001:db8::1`, with a
/// port (`203.0.113.7:4711`, `[2001:db8::1]:4711`) or in brackets.
fn parse_hop(hop: &str) -> Option<IpAddr> {
    hop.parse::<IpAddr>()
        .ok()
        .or_else(|| hop.parse::<SocketAddr>().ok().map(|s| s.ip()))
        .or_else(|| {
            hop.strip_prefix('[')
                .and_then(|h| h.strip_suffix(']'))
                .and_then(|h| h.parse().ok())
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, v.parse().expect("header value"));
        }
        h
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().expect("address")
    }

    #[test]
    fn forwarded_headers_from_an_untrusted_peer_are_ignored() {
        let h = headers(&[
            ("x-forwarded-for", "198.51.100.9"),
            ("x-forwarded-proto", "https"),
            ("x-forwarded-host", "romme.example"),
        ]);
        let c = client(ip("203.0.113.5"), &h, &[ip("127.0.0.1")]);
        assert_eq!(
            c,
            Client {
                ip: ip("203.0.113.5"),
                forwarded_host: None,
                https: false
            }
        );
    }

    #[test]
    fn a_trusted_proxy_names_the_client_host_and_scheme() {
        let h = headers(&[
            ("x-forwarded-for", "198.51.100.9"),
            ("x-forwarded-proto", "https"),
            ("x-forwarded-host", "romme.example"),
        ]);
        let c = client(ip("127.0.0.1"), &h, &[ip("127.0.0.1")]);
        assert_eq!(c.ip, ip("198.51.100.9"));
        assert_eq!(c.forwarded_host.as_deref(), Some("romme.example"));
        assert!(c.https);
    }

    #[test]
    fn the_client_is_the_last_address_no_trusted_proxy_wrote() {
        // The client claims 10.0.0.1 itself; the outer proxy (10.1.1.1,
        // trusted) saw 198.51.100.9 and the inner one saw the outer.
        let h = headers(&[
            ("x-forwarded-for", "10.0.0.1, 198.51.100.9"),
            ("x-forwarded-for", "10.1.1.1"),
        ]);
        let trusted = [ip("127.0.0.1"), ip("10.1.1.1")];
        assert_eq!(client(ip("127.0.0.1"), &h, &trusted).ip, ip("198.51.100.9"));
        // Ports and brackets as some proxies write them.
        let h = headers(&[("x-forwarded-for", "[2001:db8::7]:4711")]);
        assert_eq!(client(ip("127.0.0.1"), &h, &trusted).ip, ip("2001:db8::7"));
        let h = headers(&[("x-forwarded-for", "198.51.100.9:4711")]);
        assert_eq!(client(ip("127.0.0.1"), &h, &trusted).ip, ip("198.51.100.9"));
    }

    #[test]
    fn garbage_or_no_header_leaves_the_proxy_as_the_client() {
        let trusted = [ip("127.0.0.1")];
        let h = headers(&[("x-forwarded-for", "unknown")]);
        assert_eq!(client(ip("127.0.0.1"), &h, &trusted).ip, ip("127.0.0.1"));
        // Garbage left of a good entry is never reached.
        let h = headers(&[("x-forwarded-for", "nonsense, 198.51.100.9")]);
        assert_eq!(client(ip("127.0.0.1"), &h, &trusted).ip, ip("198.51.100.9"));
        let c = client(ip("127.0.0.1"), &HeaderMap::new(), &trusted);
        assert_eq!(c.ip, ip("127.0.0.1"));
        assert!(!c.https && c.forwarded_host.is_none());
    }

    proptest::proptest! {
        /// Whatever the headers say: nothing is believed from an untrusted
        /// peer; the client is the peer or an address of X-Forwarded-For,
        /// never one written left of an address no trusted proxy vouches for
        /// (a client could have written it); and the address the proxy
        /// itself appended is the client when it is no proxy.
        #[test]
        fn the_client_is_never_further_left_than_the_last_untrusted_hop(
            hops in proptest::collection::vec(0usize..6, 0..6),
            peer_trusted in proptest::prelude::any::<bool>(),
        ) {
            // 0-1: trusted proxies, 2-4: clients, 5: garbage.
            let words = ["10.1.1.1", "10.1.1.2", "198.51.100.1", "198.51.100.2", "[2001:db8::1]:80", "garbage"];
            let trusted = [ip("10.1.1.1"), ip("10.1.1.2"), ip("127.0.0.1")];
            let peer = if peer_trusted { ip("127.0.0.1") } else { ip("203.0.113.9") };
            let list: Vec<&str> = hops.iter().map(|&h| words[h]).collect();
            let h = headers(&[("x-forwarded-for", &list.join(", "))]);
            let c = client(peer, &h, &trusted).ip;
            let parsed: Vec<Option<IpAddr>> = list.iter().map(|w| parse_hop(w)).collect();
            if !peer_trusted {
                proptest::prop_assert_eq!(c, peer);
            }
            let at = parsed.iter().rposition(|a| *a == Some(c));
            proptest::prop_assert!(c == peer || at.is_some());
            let untrusted = parsed
                .iter()
                .rposition(|a| a.is_some_and(|a| !trusted.contains(&a)));
            if let (Some(u), Some(a)) = (untrusted, at) {
                proptest::prop_assert!(a >= u || c == peer, "{list:?} gave {c}");
            }
            if peer_trusted
                && let Some(Some(last)) = parsed.last()
                && !trusted.contains(last)
            {
                proptest::prop_assert_eq!(c, *last);
            }
        }
    }
}
