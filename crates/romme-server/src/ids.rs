//! Identifiers and secrets from the operating system's random source:
//! table ids (also the invite codes), player ids, match seeds, keys.

/// `N` bytes from the OS random source. The OS source failing is not
/// recoverable for a server that must not deal predictable cards.
pub fn random_bytes<const N: usize>() -> [u8; N] {
    let mut buf = [0u8; N];
    if let Err(e) = getrandom::fill(&mut buf) {
        panic!("the operating system's random source failed: {e}");
    }
    buf
}

/// A match seed.
pub fn seed() -> u64 {
    u64::from_le_bytes(random_bytes::<8>())
}

const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";

/// A random id of `len` characters from an alphabet without look-alikes
/// (5 bits each).
pub fn id(len: usize) -> String {
    let bytes = random_bytes::<32>();
    bytes
        .iter()
        .take(len.min(32))
        .map(|b| ALPHABET[usize::from(b % 32)] as char)
        .collect()
}

/// A new table id (12 characters, 60 bits: also the invite code).
pub fn table_id() -> String {
    id(12)
}

/// A new player id.
pub fn player_id() -> String {
    format!("p{}", id(15))
}

#[cfg(test)]
mod tests {
    #[test]
    fn ids_differ_and_use_the_alphabet() {
        let a = super::table_id();
        let b = super::table_id();
        assert_ne!(a, b);
        assert_eq!(a.len(), 12);
        assert!(a.bytes().all(|c| super::ALPHABET.contains(&c)));
    }
}
