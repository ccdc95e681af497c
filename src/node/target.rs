//! The nodes an OIS is written for, in one table: what people call them, the OIS format each
//! reads, the `nodeVersion` its config names, whether it is released, and what `ois` can scaffold
//! for it. Every command takes its targets, and its default, from here.

use crate::ois::model::FormatFamily;

/// A node that reads OIS.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// Airnode 0.15 (reads OIS 2.3.x).
    Airnode015,
    /// Airnode Feed 3.x (reads OIS 2.3.x).
    AirnodeFeed3,
    /// Airnode Feed 4.x (reads OIS 3.0.x; not released yet).
    AirnodeFeed4,
    /// Airnode's next release (reads OIS 3.0.x; not released yet).
    AirnodeNext,
}

/// What `ois` can scaffold for a target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scaffolds {
    /// A whole Airnode Feed config.
    FeedConfig,
    /// A whole Airnode config.json.
    AirnodeConfig,
    /// Only the config.json fragment (`ois` and `apiCredentials`): no released config to write.
    FragmentOnly,
}

/// One row of the table.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    /// The target.
    pub target: Target,
    /// Its name on the command line and in messages: `airnode-feed@3`.
    pub name: &'static str,
    /// What people call it.
    pub title: &'static str,
    /// The OIS format family it reads.
    pub family: FormatFamily,
    /// The `oisFormat` the converter writes for it.
    pub ois_format: &'static str,
    /// The `nodeSettings.nodeVersion` its config names.
    pub node_version: &'static str,
    /// Whether a release of it exists.
    pub released: bool,
    /// What can be scaffolded for it.
    pub scaffolds: Scaffolds,
}

const AIRNODE_015: Node = Node {
    target: Target::Airnode015,
    name: "airnode@0.15",
    title: "Airnode 0.15",
    family: FormatFamily::V2_3,
    ois_format: "2.3.2",
    node_version: "0.15.0",
    released: true,
    scaffolds: Scaffolds::AirnodeConfig,
};

const AIRNODE_FEED_3: Node = Node {
    target: Target::AirnodeFeed3,
    name: "airnode-feed@3",
    title: "Airnode Feed 3.3",
    family: FormatFamily::V2_3,
    ois_format: "2.3.2",
    node_version: "3.3.0",
    released: true,
    scaffolds: Scaffolds::FeedConfig,
};

const AIRNODE_FEED_4: Node = Node {
    target: Target::AirnodeFeed4,
    name: "airnode-feed@4",
    title: "Airnode Feed 4",
    family: FormatFamily::V3_0,
    ois_format: "3.0.0",
    node_version: "4.0.0",
    released: false,
    scaffolds: Scaffolds::FeedConfig,
};

const AIRNODE_NEXT: Node = Node {
    target: Target::AirnodeNext,
    name: "airnode@next",
    title: "Airnode (next release)",
    family: FormatFamily::V3_0,
    ois_format: "3.0.0",
    node_version: "",
    released: false,
    scaffolds: Scaffolds::FragmentOnly,
};

/// Every target, oldest first.
pub const NODES: &[Node] = &[AIRNODE_015, AIRNODE_FEED_3, AIRNODE_FEED_4, AIRNODE_NEXT];

impl Target {
    /// The newest released node: what every command targets unless told otherwise.
    pub const NEWEST_RELEASED: Target = Target::AirnodeFeed3;

    /// Every target, oldest first.
    pub fn all() -> impl Iterator<Item = Target> {
        NODES.iter().map(|node| node.target)
    }

    /// Its row of the table.
    pub const fn node(self) -> &'static Node {
        match self {
            Target::Airnode015 => &AIRNODE_015,
            Target::AirnodeFeed3 => &AIRNODE_FEED_3,
            Target::AirnodeFeed4 => &AIRNODE_FEED_4,
            Target::AirnodeNext => &AIRNODE_NEXT,
        }
    }

    /// Its name: `airnode-feed@3`.
    pub const fn name(self) -> &'static str {
        self.node().name
    }

    /// The OIS format family it reads.
    pub const fn family(self) -> FormatFamily {
        self.node().family
    }

    /// The `oisFormat` the converter writes for it.
    pub const fn ois_format(self) -> &'static str {
        self.node().ois_format
    }

    /// The `nodeVersion` its config names.
    pub const fn node_version(self) -> &'static str {
        self.node().node_version
    }

    /// The target named `name`.
    pub fn named(name: &str) -> Option<Target> {
        NODES.iter().find(|node| node.name == name).map(|node| node.target)
    }

    /// The targets that read `family`, named for a message: "airnode@0.15, airnode-feed@3".
    pub fn reading(family: FormatFamily) -> String {
        NODES.iter().filter(|node| node.family == family).map(|node| node.name).collect::<Vec<_>>().join(", ")
    }

    /// The targets that read every one of `families`, oldest first: none for no family, or for
    /// two (no node reads both).
    pub fn reading_all(families: &[FormatFamily]) -> Vec<Target> {
        match families {
            [family] => NODES.iter().filter(|node| node.family == *family).map(|node| node.target).collect(),
            _ => Vec::new(),
        }
    }

    /// Whether a release of it exists.
    pub const fn released(self) -> bool {
        self.node().released
    }

    /// The released Airnode Feed that reads `family` (or the unreleased one when none does).
    pub fn feed_for(family: FormatFamily) -> Target {
        match family {
            FormatFamily::V2_3 => Target::AirnodeFeed3,
            FormatFamily::V3_0 => Target::AirnodeFeed4,
        }
    }
}

impl std::fmt::Display for Target {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_target_has_one_row_and_its_name_finds_it() {
        for target in [Target::Airnode015, Target::AirnodeFeed3, Target::AirnodeFeed4, Target::AirnodeNext] {
            assert_eq!(NODES.iter().filter(|node| node.target == target).count(), 1, "{target:?}");
            assert_eq!(target.node().target, target);
            assert_eq!(Target::named(target.name()), Some(target));
            assert_eq!(FormatFamily::of_version(target.ois_format()), Some(target.family()));
        }
        assert_eq!(Target::all().count(), NODES.len());
    }

    #[test]
    fn the_default_is_the_newest_released_node() {
        let newest = NODES.iter().rfind(|node| node.released).map(|node| node.target);
        assert_eq!(newest, Some(Target::NEWEST_RELEASED));
        assert_eq!(Target::reading(FormatFamily::V2_3), "airnode@0.15, airnode-feed@3");
    }
}
