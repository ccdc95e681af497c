//! What the nodes are, in one place below everything that needs it (scaffolds, checks, requests,
//! updates): the [targets](Target) and their versions, how the node [derives IDs](ids), how
//! it [names secrets](secret_name), and what its HTTP client, axios, puts on the wire.

pub mod abi_decode;
pub(crate) mod axios;
pub mod dotenv;
pub mod ids;
mod secret_places;
mod secrets;
pub mod signed_data;
mod target;

pub use crate::ois::ConfigKind;
pub use ids::{airnode_address, create_template_calldata, endpoint_id, endpoint_ids, rrp_template_id, sponsor_wallet};
pub use secret_places::node_secrets_out_of_place;
pub use secrets::{
    CredentialSlot, MNEMONIC_SECRET, NODE_SECRET_SUFFIX, credential_slots, is_node_secret, is_secret_name,
    mnemonic_secret, node_secrets_of, referenced_names, secret_name, server_url_secret_problem,
    signed_api_token_secret, template_expressions,
};
pub use target::{NODES, Node, RELEASES, Release, Scaffolds, Target, TargetSpec, releases_markdown};
