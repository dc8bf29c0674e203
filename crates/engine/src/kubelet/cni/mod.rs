//! The node's CNI plugin, as kind's kindnet configures it: the `ptp` plugin (one veth pair
//! per pod, the host end `veth<8 hex>`, the pod end `eth0`) with `host-local` IPAM over
//! the node's `spec.podCIDR` (in [`ipam`]). Upstream: containernetworking/plugins'
//! `plugins/main/ptp`, run by containerd for the kubelet's RunPodSandbox.

pub mod ipam;

pub use ipam::{ip_to_string, parse_ipv4, HostLocal, Ipv4Net};

use crate::rng::Rng;

/// The plugin type kindnet's CNI config chains first.
pub const CNI_PLUGIN_TYPE: &str = "ptp";
/// The network name in kindnet's conflist.
pub const CNI_NETWORK_NAME: &str = "kindnet";
/// Where the CNI plugin binaries live.
pub const CNI_BIN_DIR: &str = "/opt/cni/bin";
/// The interface name inside the pod.
pub const POD_INTERFACE: &str = "eth0";
/// The MTU kindnet configures.
pub const POD_MTU: u32 = 1500;
/// Time the ptp plugin and host-local IPAM take for an ADD.
pub const CNI_ADD_MS: u64 = 45;

/// A failure the lab can switch on for a node's CNI plugin (lab settings: `pluginMissing`,
/// `ipamExhausted`, or `{custom: "<error text>"}`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum CniFault {
    /// The plugin binary is missing from `/opt/cni/bin`.
    PluginMissing,
    /// The IPAM range is exhausted (as if every address were taken).
    IpamExhausted,
    /// Any other error text from the plugin.
    Custom(String),
}

/// The outcome of a CNI ADD.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CniResult {
    pub host_veth: String,
    pub host_mac: String,
    pub pod_mac: String,
    pub ip: u32,
    pub prefix: u8,
    pub gateway: u32,
}

fn mac(rng: &mut Rng) -> String {
    let v = rng.next_u64();
    // Locally administered, unicast.
    let b0 = ((v as u8) & 0xfc) | 0x02;
    format!(
        "{:02x}:{:02x}:{:02x}:{:02x}:{:02x}:{:02x}",
        b0,
        (v >> 8) as u8,
        (v >> 16) as u8,
        (v >> 24) as u8,
        (v >> 32) as u8,
        (v >> 40) as u8
    )
}

/// Runs the plugin's ADD for a sandbox: the error text (as the plugin returns it) or the
/// result.
pub fn add(
    ipam: &mut HostLocal,
    fault: Option<&CniFault>,
    sandbox_id: &str,
    rng: &mut Rng,
) -> Result<CniResult, String> {
    match fault {
        Some(CniFault::PluginMissing) => {
            return Err(format!("failed to find plugin {CNI_PLUGIN_TYPE:?} in path [{CNI_BIN_DIR}]"));
        }
        Some(CniFault::IpamExhausted) => return Err(ipam.exhausted_error()),
        Some(CniFault::Custom(m)) => return Err(m.clone()),
        None => {}
    }
    let ip = ipam.allocate(sandbox_id)?;
    let host_veth = format!("veth{:08x}", rng.next_u64() as u32);
    Ok(CniResult {
        host_veth,
        host_mac: mac(rng),
        pod_mac: mac(rng),
        ip,
        prefix: ipam.subnet.prefix,
        gateway: ipam.subnet.gateway(),
    })
}

/// The kubelet's event text for a sandbox whose network setup failed.
pub fn sandbox_failure_message(sandbox_id: &str, plugin_error: &str) -> String {
    format!(
        "Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox {sandbox_id:?}: plugin type={CNI_PLUGIN_TYPE:?} failed (add): {plugin_error}"
    )
}
