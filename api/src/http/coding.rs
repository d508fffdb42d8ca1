//! Content codings: which one a client takes (`Accept-Encoding`), and compressing a body in
//! it, as the generator compresses the copies it writes (brotli 5 or gzip 6 for what is
//! made on demand). Shared by the static files and the JSON answers that can be large.

use bytes::Bytes;

/// A compression a client may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Coding {
    Brotli,
    Gzip,
}

impl Coding {
    /// The name in `Content-Encoding`.
    pub fn name(self) -> &'static str {
        match self {
            Coding::Brotli => "br",
            Coding::Gzip => "gzip",
        }
    }

    /// `plain` in this coding; `None` if it could not be compressed (then send it plain).
    pub fn compress(self, plain: &[u8]) -> Option<Bytes> {
        compress(plain, self.name())
            .inspect_err(|e| tracing::warn!(error = %e, "could not compress an answer"))
            .ok()
    }
}

/// The coding to answer in: brotli when taken, else gzip, else none.
pub fn preferred_coding(accept_encoding: Option<&str>) -> Option<Coding> {
    [Coding::Brotli, Coding::Gzip]
        .into_iter()
        .find(|c| accepts(accept_encoding, c.name()))
}

/// Whether `Accept-Encoding` takes `coding` (and does not refuse it with `q=0`).
pub fn accepts(accept_encoding: Option<&str>, coding: &str) -> bool {
    accept_encoding.is_some_and(|a| {
        a.split(',').any(|part| {
            let mut bits = part.split(';');
            let name = bits.next().unwrap_or("").trim();
            let refused = bits.any(|q| {
                let q = q.trim().replace(' ', "");
                q.strip_prefix("q=")
                    .and_then(|v| v.parse::<f32>().ok())
                    .is_some_and(|v| v == 0.0)
            });
            name.eq_ignore_ascii_case(coding) && !refused
        })
    })
}

/// `plain` in `coding` (`br` or `gzip`).
pub fn compress(plain: &[u8], coding: &str) -> std::io::Result<Bytes> {
    use generator::output::{Compression, brotli, gzip};
    let compressed = match coding {
        "br" => brotli(plain, Compression::OnDemand),
        _ => gzip(plain, Compression::OnDemand),
    };
    compressed.map(Bytes::from).map_err(std::io::Error::other)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_client_chooses_and_q0_refuses() {
        assert_eq!(preferred_coding(Some("gzip, br")), Some(Coding::Brotli));
        assert_eq!(preferred_coding(Some("gzip")), Some(Coding::Gzip));
        assert_eq!(preferred_coding(Some("br;q=0, gzip")), Some(Coding::Gzip));
        assert_eq!(preferred_coding(Some("identity")), None);
        assert_eq!(preferred_coding(None), None);
    }
}
