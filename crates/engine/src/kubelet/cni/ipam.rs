//! host-local IPAM (containernetworking/plugins' `plugins/ipam/host-local`) over the node's
//! `spec.podCIDR`, as the CNI plugin calls it on ADD and DEL.
//!
//! host-local facts kept here: the range runs from the first address after the network to
//! the last before broadcast; the gateway defaults to the first address (`.1`) and is never
//! handed out; allocation goes round-robin from the last reserved address (an address freed
//! by a deleted pod is not reused at once); an address in use is never given twice; a full
//! range fails with `no IP addresses available in range set: <start>-<end>`.

use std::collections::BTreeMap;

/// An IPv4 network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ipv4Net {
    pub addr: u32,
    pub prefix: u8,
}

pub fn ip_to_string(ip: u32) -> String {
    format!("{}.{}.{}.{}", ip >> 24, (ip >> 16) & 0xff, (ip >> 8) & 0xff, ip & 0xff)
}

pub fn parse_ipv4(s: &str) -> Option<u32> {
    let parts: Vec<&str> = s.split('.').collect();
    if parts.len() != 4 {
        return None;
    }
    let mut ip = 0u32;
    for p in parts {
        let v: u8 = p.parse().ok()?;
        ip = (ip << 8) | v as u32;
    }
    Some(ip)
}

impl Ipv4Net {
    /// Parses `10.244.1.0/24`.
    pub fn parse(s: &str) -> Option<Ipv4Net> {
        let (a, p) = s.split_once('/')?;
        let prefix: u8 = p.parse().ok()?;
        if prefix > 30 {
            return None;
        }
        let ip = parse_ipv4(a)?;
        let mask = if prefix == 0 { 0 } else { u32::MAX << (32 - prefix) };
        Some(Ipv4Net { addr: ip & mask, prefix })
    }

    pub fn broadcast(&self) -> u32 {
        let host_bits = 32 - self.prefix as u32;
        self.addr | ((1u64 << host_bits) - 1) as u32
    }

    pub fn gateway(&self) -> u32 {
        self.addr + 1
    }

    pub fn range_start(&self) -> u32 {
        self.addr + 1
    }

    pub fn range_end(&self) -> u32 {
        self.broadcast() - 1
    }
}

/// host-local IPAM state for one node's range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostLocal {
    pub subnet: Ipv4Net,
    /// `last_reserved_ip.0`.
    pub last_reserved: Option<u32>,
    /// Address → the sandbox (container) ID holding it.
    pub allocated: BTreeMap<u32, String>,
}

impl HostLocal {
    pub fn new(subnet: Ipv4Net) -> HostLocal {
        HostLocal { subnet, last_reserved: None, allocated: BTreeMap::new() }
    }

    /// `<start>-<end>` as host-local prints its range set.
    pub fn range_set(&self) -> String {
        format!("{}-{}", ip_to_string(self.subnet.range_start()), ip_to_string(self.subnet.range_end()))
    }

    pub(super) fn exhausted_error(&self) -> String {
        format!("failed to allocate for range 0: no IP addresses available in range set: {}", self.range_set())
    }

    /// Allocates the next free address for `sandbox_id`.
    pub fn allocate(&mut self, sandbox_id: &str) -> Result<u32, String> {
        let start = self.subnet.range_start();
        let end = self.subnet.range_end();
        let first = match self.last_reserved {
            Some(last) if last >= start && last < end => last + 1,
            _ => start,
        };
        let count = end - start + 1;
        for i in 0..count {
            let ip = start + (first - start + i) % count;
            if ip == self.subnet.gateway() || self.allocated.contains_key(&ip) {
                continue;
            }
            self.allocated.insert(ip, sandbox_id.to_string());
            self.last_reserved = Some(ip);
            return Ok(ip);
        }
        Err(self.exhausted_error())
    }

    /// Releases whatever `sandbox_id` holds (CNI DEL).
    pub fn release(&mut self, sandbox_id: &str) -> Option<u32> {
        let ip = self.allocated.iter().find(|(_, id)| id.as_str() == sandbox_id).map(|(ip, _)| *ip)?;
        self.allocated.remove(&ip);
        Some(ip)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_local_hands_out_round_robin_and_skips_the_gateway() {
        let mut ipam = HostLocal::new(Ipv4Net::parse("10.244.1.0/24").unwrap());
        let a = ipam.allocate("a").unwrap();
        let b = ipam.allocate("b").unwrap();
        assert_eq!(ip_to_string(a), "10.244.1.2");
        assert_eq!(ip_to_string(b), "10.244.1.3");
        ipam.release("a");
        // Freed .2 is not reused at once: allocation continues after the last one.
        assert_eq!(ip_to_string(ipam.allocate("c").unwrap()), "10.244.1.4");
        let mut small = HostLocal::new(Ipv4Net::parse("10.244.9.0/30").unwrap());
        assert_eq!(ip_to_string(small.allocate("x").unwrap()), "10.244.9.2");
        assert_eq!(
            small.allocate("y").unwrap_err(),
            "failed to allocate for range 0: no IP addresses available in range set: 10.244.9.1-10.244.9.2"
        );
    }
}
