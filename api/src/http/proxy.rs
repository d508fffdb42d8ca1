//! Which peers may speak for a client. Behind a reverse proxy every connection comes from
//! the proxy, which passes on the real client in `X-Forwarded-For` (and the host asked for
//! in `X-Forwarded-Host`). Those headers are believed only from the proxies named in
//! `TRUSTED_PROXIES`: a client that reaches the port directly could otherwise write them
//! itself, dodge every rate limit and put any address in the audit log.

use std::net::IpAddr;
use std::sync::Arc;

use ipnet::IpNet;

/// `TRUST_PROXY` and `TRUSTED_PROXIES`.
#[derive(Debug, Clone, Default)]
pub struct ProxyTrust {
    /// `None`: `TRUST_PROXY` is off and no peer is believed.
    nets: Option<Arc<[IpNet]>>,
}

impl ProxyTrust {
    /// Believe no one (clients connect directly).
    pub fn off() -> ProxyTrust {
        ProxyTrust::default()
    }

    /// Believe peers in `nets`.
    pub fn from(nets: Vec<IpNet>) -> ProxyTrust {
        ProxyTrust {
            nets: Some(nets.into()),
        }
    }

    /// Parses `TRUSTED_PROXIES`: addresses or CIDRs, separated by commas or spaces.
    pub fn parse(list: &str) -> Result<ProxyTrust, String> {
        let nets = list
            .split([',', ' '])
            .filter(|s| !s.trim().is_empty())
            .map(|s| {
                let s = s.trim();
                s.parse::<IpNet>()
                    .or_else(|_| s.parse::<IpAddr>().map(IpNet::from))
                    .map_err(|_| format!("`{s}` is not an address or CIDR"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(ProxyTrust::from(nets))
    }

    /// Only loopback: a proxy on the same machine (the default with `TRUST_PROXY=1`).
    pub fn loopback() -> ProxyTrust {
        ProxyTrust::parse("127.0.0.0/8, ::1/128").expect("valid")
    }

    pub fn enabled(&self) -> bool {
        self.nets.is_some()
    }

    /// Whether what `peer` says about the client is believed.
    pub fn trusts(&self, peer: Option<IpAddr>) -> bool {
        let (Some(nets), Some(peer)) = (&self.nets, peer) else {
            return false;
        };
        // An IPv4 peer on a dual-stack socket shows as `::ffff:a.b.c.d`.
        let peer = match peer {
            IpAddr::V6(v6) => v6.to_ipv4_mapped().map(IpAddr::V4).unwrap_or(peer),
            v4 => v4,
        };
        nets.iter().any(|net| net.contains(&peer))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_named_proxies_are_believed() {
        let ip = |s: &str| Some(s.parse::<IpAddr>().unwrap());
        assert!(!ProxyTrust::off().trusts(ip("127.0.0.1")));
        let local = ProxyTrust::loopback();
        assert!(local.trusts(ip("127.0.0.1")));
        assert!(local.trusts(ip("::1")));
        assert!(local.trusts(ip("::ffff:127.0.0.1")));
        assert!(!local.trusts(ip("10.0.0.1")));
        assert!(!local.trusts(None));
        let lan = ProxyTrust::parse("10.1.0.0/16 192.168.1.7,fd00::/8").unwrap();
        assert!(lan.trusts(ip("10.1.200.3")));
        assert!(lan.trusts(ip("192.168.1.7")));
        assert!(!lan.trusts(ip("192.168.1.8")));
        assert!(lan.trusts(ip("fd00::1")));
        assert!(ProxyTrust::parse("10.0.0.0/33").is_err());
        assert!(ProxyTrust::parse("proxy.example").is_err());
    }
}
