//! Who may talk to the studio: a request on loopback, naming the studio's own host and port (a
//! web page elsewhere cannot reach it through DNS rebinding), carrying the studio's token (in the
//! page's URL, then in a header on every call), from no other origin. No CORS: a page of another
//! origin can neither read an answer nor send the token header.

/// A request as the server received it.
#[derive(Clone, Debug, Default)]
pub struct Incoming {
    /// `GET`, `POST`, …
    pub method: String,
    /// The path and query, as sent.
    pub url: String,
    /// The `Host` header.
    pub host: Option<String>,
    /// The `X-Ois-Token` header.
    pub token: Option<String>,
    /// The `Origin` header.
    pub origin: Option<String>,
    /// The body.
    pub body: Vec<u8>,
}

/// An answer.
#[derive(Clone, Debug)]
pub struct Outgoing {
    /// The HTTP status.
    pub status: u16,
    /// Its `Content-Type`.
    pub content_type: &'static str,
    /// The body.
    pub body: Vec<u8>,
}

impl Outgoing {
    /// A plain-text answer.
    pub fn text(status: u16, text: &str) -> Outgoing {
        Outgoing { status, content_type: "text/plain; charset=utf-8", body: text.as_bytes().to_vec() }
    }

    /// A JSON answer.
    pub fn json(status: u16, value: &impl serde::Serialize) -> Outgoing {
        let body = serde_json::to_vec(value).unwrap_or_else(|_| b"null".to_vec());
        Outgoing { status, content_type: "application/json", body }
    }
}

/// The headers every answer carries: nothing cached, nothing framed, no referrer (the page's URL
/// holds the token), scripts and styles only from the studio itself.
pub const SECURITY_HEADERS: &[(&str, &str)] = &[
    (
        "Content-Security-Policy",
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    ),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    ("Cache-Control", "no-store"),
    ("X-Frame-Options", "DENY"),
];

/// Why a request is refused before it reaches the studio, or `None` when it may go on.
pub fn refusal(incoming: &Incoming, port: u16, token: &str) -> Option<Outgoing> {
    let host_ok = incoming.host.as_deref().is_some_and(|host| crate::call::loopback::is_own_host(host, port));
    if !host_ok {
        return Some(Outgoing::text(403, "refused: the Host is not this studio's (127.0.0.1 or localhost, its port)"));
    }
    if let Some(origin) = &incoming.origin
        && origin != &format!("http://127.0.0.1:{port}")
        && origin != &format!("http://localhost:{port}")
    {
        return Some(Outgoing::text(403, "refused: a request from another origin"));
    }
    if incoming.method == "OPTIONS" {
        return Some(Outgoing::text(403, "refused: the studio answers no cross-origin requests"));
    }
    let given =
        if incoming.url.starts_with("/api/") { incoming.token.clone() } else { query_value(&incoming.url, "token") };
    if !given.is_some_and(|given| same(&given, token)) {
        return Some(Outgoing::text(
            403,
            "refused: the studio's token is missing or wrong (open the URL `ois studio` printed)",
        ));
    }
    None
}

/// The value of `key` in the query of `url`, percent-decoded.
pub fn query_value(url: &str, key: &str) -> Option<String> {
    let (_, query) = url.split_once('?')?;
    url::form_urlencoded::parse(query.as_bytes()).find(|(k, _)| k == key).map(|(_, v)| v.into_owned())
}

/// Compares in time that does not depend on where they differ.
fn same(given: &str, token: &str) -> bool {
    given.len() == token.len() && given.bytes().zip(token.bytes()).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0
}

/// A new token: 32 random bytes, hex.
pub fn new_token() -> Result<String, crate::Diagnostic> {
    let mut bytes = [0u8; 32];
    getrandom::getrandom(&mut bytes).map_err(|error| {
        crate::Diagnostic::elsewhere(
            crate::Code::CallFailed,
            format!("no random source for the studio's token: {error}"),
        )
    })?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;

    fn request(host: &str, url: &str, token: Option<&str>) -> Incoming {
        Incoming {
            method: "GET".into(),
            url: url.into(),
            host: Some(host.into()),
            token: token.map(str::to_owned),
            ..Incoming::default()
        }
    }

    #[test]
    fn only_its_host_its_token_its_origin() {
        let t = "ab12";
        assert!(refusal(&request("127.0.0.1:8000", "/?token=ab12", None), 8000, t).is_none());
        assert!(refusal(&request("localhost:8000", "/api/state", Some(t)), 8000, t).is_none());
        for (host, url, token) in [
            ("evil.example:8000", "/?token=ab12", None),
            ("127.0.0.1:8001", "/?token=ab12", None),
            ("127.0.0.1", "/?token=ab12", None),
            ("127.0.0.1:8000", "/?token=ab13", None),
            ("127.0.0.1:8000", "/", None),
            ("127.0.0.1:8000", "/api/state", None),
            ("127.0.0.1:8000", "/api/state?token=ab12", None),
            ("127.0.0.1:8000", "/api/state", Some("ab1")),
        ] {
            assert_eq!(refusal(&request(host, url, token), 8000, t).map(|o| o.status), Some(403), "{host} {url}");
        }
        let mut cross = request("127.0.0.1:8000", "/api/state", Some(t));
        cross.origin = Some("http://evil.example".into());
        assert_eq!(refusal(&cross, 8000, t).map(|o| o.status), Some(403));
        cross.origin = Some("http://127.0.0.1:8000".into());
        assert!(refusal(&cross, 8000, t).is_none());
        cross.method = "OPTIONS".into();
        assert_eq!(refusal(&cross, 8000, t).map(|o| o.status), Some(403));
    }

    #[test]
    fn tokens_are_long_and_new() {
        let (a, b) = (new_token().unwrap(), new_token().unwrap());
        assert_eq!(a.len(), 64);
        assert_ne!(a, b);
    }
}
