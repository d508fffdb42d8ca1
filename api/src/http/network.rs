//! The unit every per-address limit counts in. One IPv4 address is one client, but an IPv6
//! client is given a whole /64 at least, and may take a new address in it for every request:
//! limits keyed on the full address let one machine walk past them (twelve wrong passwords
//! from `2001:db8:5:5::1` to `::c` were all checked). So an IPv6 address stands for its /64,
//! and an IPv4 address written as IPv6 (`::ffff:192.0.2.1`) for the IPv4 address.

use std::net::{IpAddr, Ipv6Addr};

/// What `ip` counts as in a per-address limit: itself (IPv4), or its /64 (IPv6).
pub fn limit_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(Ipv6Addr::from(u128::from(v6) & !u128::from(u64::MAX))),
        },
    }
}

/// The network `ip` belongs to, for a bound on what one network may cause (confirmation
/// mail to strangers): its /24 (IPv4: one office, campus or mobile gateway's block) or its
/// /64 (IPv6: one subscriber's LAN).
pub fn network_of(ip: IpAddr) -> IpAddr {
    match limit_key(ip) {
        IpAddr::V4(v4) => IpAddr::V4(std::net::Ipv4Addr::from(u32::from(v4) & 0xffff_ff00)),
        v6 => v6,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(s: &str) -> String {
        limit_key(s.parse().unwrap()).to_string()
    }

    #[test]
    fn ipv6_counts_by_its_64_and_ipv4_by_itself() {
        assert_eq!(key("2001:db8:5:5::1"), "2001:db8:5:5::");
        assert_eq!(key("2001:db8:5:5:ffff:ffff:ffff:ffff"), "2001:db8:5:5::");
        assert_ne!(key("2001:db8:5:6::1"), key("2001:db8:5:5::1"));
        assert_eq!(key("192.0.2.7"), "192.0.2.7");
        assert_eq!(key("::ffff:192.0.2.7"), "192.0.2.7");
        assert_eq!(key("::1"), "::");
    }

    #[test]
    fn a_network_is_an_ipv4_24_or_an_ipv6_64() {
        let net = |s: &str| network_of(s.parse().unwrap()).to_string();
        assert_eq!(net("192.0.2.7"), "192.0.2.0");
        assert_eq!(net("::ffff:192.0.2.200"), "192.0.2.0");
        assert_ne!(net("192.0.3.7"), net("192.0.2.7"));
        assert_eq!(net("2001:db8:5:5::1"), "2001:db8:5:5::");
    }
}
