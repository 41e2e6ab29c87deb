//! Players' identities: signed session tokens (HMAC-SHA256 over the player
//! id and an expiry time, key kept in the database) and argon2 password
//! hashes for accounts.

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac};
use sha2::Sha256;

/// How long a session token is valid.
pub const TOKEN_DAYS: i64 = 30;

/// Why a token or name was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AuthError {
    /// Not a token of this server, or altered.
    #[error("the session token is not valid")]
    BadToken,
    /// Too old.
    #[error("the session token has expired; log in again")]
    Expired,
    /// Name empty, too long or with control characters.
    #[error("a name has 1 to 24 characters, no control characters")]
    BadName,
    /// Password too short.
    #[error("a password has at least 8 characters")]
    WeakPassword,
    /// Wrong name or password.
    #[error("wrong name or password")]
    WrongPassword,
}

/// Signs and checks session tokens.
#[derive(Clone)]
pub struct Tokens {
    key: Vec<u8>,
}

impl Tokens {
    /// With the server's key.
    pub fn new(key: Vec<u8>) -> Tokens {
        Tokens { key }
    }

    fn mac(&self, payload: &str) -> Vec<u8> {
        // HMAC accepts keys of any length.
        let mut mac = match Hmac::<Sha256>::new_from_slice(&self.key) {
            Ok(m) => m,
            Err(_) => return Vec::new(),
        };
        mac.update(payload.as_bytes());
        mac.finalize().into_bytes().to_vec()
    }

    /// A token for `player`, valid for [`TOKEN_DAYS`] from `now` (seconds).
    pub fn issue(&self, player: &str, now: i64) -> String {
        let payload = format!("{player}.{}", now + TOKEN_DAYS * 86_400);
        let sig = URL_SAFE_NO_PAD.encode(self.mac(&payload));
        format!("{payload}.{sig}")
    }

    /// The player a token belongs to.
    pub fn check(&self, token: &str, now: i64) -> Result<String, AuthError> {
        self.check_issued(token, now).map(|(player, _)| player)
    }

    /// The player a token belongs to, and when it was issued (seconds).
    pub fn check_issued(&self, token: &str, now: i64) -> Result<(String, i64), AuthError> {
        let (payload, sig) = token.rsplit_once('.').ok_or(AuthError::BadToken)?;
        let sig = URL_SAFE_NO_PAD
            .decode(sig)
            .map_err(|_| AuthError::BadToken)?;
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.key).map_err(|_| AuthError::BadToken)?;
        mac.update(payload.as_bytes());
        mac.verify_slice(&sig).map_err(|_| AuthError::BadToken)?;
        let (player, expiry) = payload.rsplit_once('.').ok_or(AuthError::BadToken)?;
        let expiry: i64 = expiry.parse().map_err(|_| AuthError::BadToken)?;
        if expiry < now {
            return Err(AuthError::Expired);
        }
        Ok((player.to_string(), expiry - TOKEN_DAYS * 86_400))
    }
}

/// A cleaned-up display name.
pub fn check_name(name: &str) -> Result<String, AuthError> {
    let name = name.trim();
    let n = name.chars().count();
    if n == 0 || n > 24 || name.chars().any(char::is_control) {
        return Err(AuthError::BadName);
    }
    Ok(name.to_string())
}

/// Hash a password (slow on purpose: call from a blocking thread).
pub fn hash_password(password: &str) -> Result<String, AuthError> {
    if password.chars().count() < 8 {
        return Err(AuthError::WeakPassword);
    }
    let salt_bytes = crate::ids::random_bytes::<16>();
    let salt = SaltString::encode_b64(&salt_bytes).map_err(|_| AuthError::WeakPassword)?;
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|_| AuthError::WeakPassword)
}

/// Check a password against its hash (slow on purpose).
pub fn verify_password(password: &str, hash: &str) -> Result<(), AuthError> {
    let parsed = PasswordHash::new(hash).map_err(|_| AuthError::WrongPassword)?;
    Argon2::default()
        .verify_password(password.as_bytes(), &parsed)
        .map_err(|_| AuthError::WrongPassword)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_check_out_and_tampering_is_caught() {
        let t = Tokens::new(b"k".repeat(32));
        let token = t.issue("p123", 1000);
        assert_eq!(t.check(&token, 2000), Ok("p123".into()));
        let forged = token.replacen("p123", "p124", 1);
        assert_eq!(t.check(&forged, 2000), Err(AuthError::BadToken));
        assert_eq!(
            Tokens::new(b"x".repeat(32)).check(&token, 2000),
            Err(AuthError::BadToken)
        );
        assert_eq!(
            t.check(&token, 1000 + TOKEN_DAYS * 86_400 + 1),
            Err(AuthError::Expired)
        );
        assert_eq!(t.check("garbage", 0), Err(AuthError::BadToken));
    }

    #[test]
    fn passwords_hash_and_verify() {
        let h = hash_password("correct horse").expect("hashes");
        assert!(verify_password("correct horse", &h).is_ok());
        assert_eq!(
            verify_password("wrong horse", &h),
            Err(AuthError::WrongPassword)
        );
        assert_eq!(hash_password("short"), Err(AuthError::WeakPassword));
    }

    #[test]
    fn names_are_checked() {
        assert_eq!(check_name("  Anna "), Ok("Anna".into()));
        assert_eq!(check_name(""), Err(AuthError::BadName));
        assert_eq!(check_name("a\u{7}b"), Err(AuthError::BadName));
        assert_eq!(check_name(&"x".repeat(25)), Err(AuthError::BadName));
    }
}
