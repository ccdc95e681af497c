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
    /// Airnode Feed 4.x (reads OIS 3.0.x).
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
    /// The `nodeSettings.nodeVersion` its config names by default: its newest release's.
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
    title: "Airnode Feed 3",
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
    node_version: "4.6.0",
    released: true,
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
    pub const NEWEST_RELEASED: Target = Target::AirnodeFeed4;

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

    /// Whether it is an Airnode Feed (a node whose whole config `ois` writes as a Feed config).
    pub fn is_feed(self) -> bool {
        self.node().scaffolds == Scaffolds::FeedConfig
    }

    /// Its releases, oldest first.
    pub fn releases(self) -> impl Iterator<Item = &'static Release> {
        RELEASES.iter().filter(move |release| release.target == self)
    }

    /// The Airnode Feed that reads `family`.
    pub fn feed_for(family: FormatFamily) -> Target {
        match family {
            FormatFamily::V2_3 => Target::AirnodeFeed3,
            FormatFamily::V3_0 => Target::AirnodeFeed4,
        }
    }
}

/// One released version of a node, exactly: a node refuses a config that names any other version
/// (Airnode Feed's `nodeSettings.nodeVersion`, the Signed API's `version`: `version ===
/// packageJson.version`), so a config is written for one of these.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Release {
    /// The node.
    pub target: Target,
    /// The exact version.
    pub version: &'static str,
    /// When it was published.
    pub date: &'static str,
    /// The `@api3/ois` it reads.
    pub ois_package: &'static str,
    /// The `@api3/commons` it runs processing and derives IDs with.
    pub commons_package: &'static str,
    /// What else sets it apart from the release before it.
    pub note: &'static str,
}

/// Every released node version, oldest first (Airnode Feed's and the Signed API's versions are
/// released together, from api3dao/signed-api).
pub const RELEASES: &[Release] = &[
    Release {
        target: Target::Airnode015,
        version: "0.15.0",
        date: "2025-02-10",
        ois_package: "@api3/ois 2.3.2",
        commons_package: "@api3/commons ^0.9.0",
        note: "RRP, HTTP gateways; config.json",
    },
    feed(FEED_3, "3.2.0", "2025-02-24", COMMONS_0_13, "a trigger's templates may name different endpoints"),
    feed(FEED_3, "3.3.0", "2025-04-29", COMMONS_0_13, "a trigger's templates must share their endpoint"),
    feed(FEED_4, "4.0.0", "2025-12-15", COMMONS_1_0, "OIS 3.0.x, zod 4; config schema as 4.6.0's"),
    feed(FEED_4, "4.0.1", "2025-12-16", COMMONS_1_0, ""),
    feed(FEED_4, "4.1.0", "2026-01-05", COMMONS_1_0, ""),
    feed(FEED_4, "4.2.0", "2026-03-05", COMMONS_1_2, ""),
    feed(FEED_4, "4.3.0", "2026-04-05", COMMONS_1_2, ""),
    feed(FEED_4, "4.4.0", "2026-05-05", COMMONS_1_2, ""),
    feed(FEED_4, "4.5.0", "2026-05-05", COMMONS_1_2, ""),
    feed(FEED_4, "4.6.0", "2026-07-03", COMMONS_1_2, ""),
];

const FEED_3: (Target, &str) = (Target::AirnodeFeed3, "@api3/ois ^2.3.2");
const FEED_4: (Target, &str) = (Target::AirnodeFeed4, "@api3/ois ^3.0.0");
const COMMONS_0_13: &str = "@api3/commons ^0.13.4";
const COMMONS_1_0: &str = "@api3/commons ^1.0.1";
const COMMONS_1_2: &str = "@api3/commons ^1.2.0";

/// A row of the table for an Airnode Feed release (as its package.json says).
const fn feed(
    (target, ois_package): (Target, &'static str),
    version: &'static str,
    date: &'static str,
    commons_package: &'static str,
    note: &'static str,
) -> Release {
    Release { target, version, date, ois_package, commons_package, note }
}

impl Release {
    /// `airnode-feed@4.6.0`.
    pub fn name(&self) -> String {
        let generation = self.target.name();
        let base = generation.split('@').next().unwrap_or(generation);
        format!("{base}@{}", self.version)
    }

    /// `Airnode Feed 4.6.0`.
    pub fn title(&self) -> String {
        let generation = self.target.node().title;
        let base = generation.rsplit_once(' ').map_or(generation, |(base, _)| base);
        format!("{base} {}", self.version)
    }

    /// The release of `target` whose version is `version`.
    pub fn of(target: Target, version: &str) -> Option<&'static Release> {
        target.releases().find(|release| release.version == version)
    }

    /// The newest release of `target`.
    pub fn newest(target: Target) -> Option<&'static Release> {
        target.releases().last()
    }

    /// Every Airnode Feed release (the Signed API's too: they are released together), oldest
    /// first.
    pub fn feeds() -> impl Iterator<Item = &'static Release> {
        RELEASES.iter().filter(|release| release.target.is_feed())
    }

    /// The Airnode Feed (or Signed API) release `version` names.
    pub fn feed(version: &str) -> Option<&'static Release> {
        Release::feeds().find(|release| release.version == version)
    }
}

/// What `--target` names: a node, and which release of it (`airnode-feed@4.2.0`); a node named
/// by its major version (`airnode-feed@4`) is its newest release.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TargetSpec {
    /// The node.
    pub target: Target,
    /// The exact release (none for a node not released yet).
    pub release: Option<&'static Release>,
}

impl TargetSpec {
    /// `airnode-feed@4`, `airnode-feed@4.2.0`, `airnode@0.15`, `airnode@0.15.0`, `airnode@next`.
    pub fn parse(text: &str) -> Result<TargetSpec, String> {
        let known = || {
            let names: Vec<String> =
                NODES.iter().map(|node| node.name.to_owned()).chain(RELEASES.iter().map(Release::name)).collect();
            format!("\"{text}\" is not a node ois knows: {}", names.join(", "))
        };
        if let Some(target) = Target::named(text) {
            return Ok(TargetSpec { target, release: Release::newest(target) });
        }
        RELEASES
            .iter()
            .find(|release| release.name() == text)
            .map(|release| TargetSpec { target: release.target, release: Some(release) })
            .ok_or_else(known)
    }

    /// The version its config names (`nodeSettings.nodeVersion`).
    pub fn node_version(&self) -> &'static str {
        self.release.map_or(self.target.node_version(), |release| release.version)
    }

    /// `airnode-feed@4.6.0` (or the node's name when it has no release).
    pub fn name(&self) -> String {
        self.release.map_or_else(|| self.target.name().to_owned(), Release::name)
    }
}

/// The table of node versions as Markdown, for the README and docs/node.md (a test keeps them equal
/// to it).
pub fn releases_markdown() -> String {
    let mut out = String::from(
        "| target | node | released | reads | processing and IDs | what sets it apart |\n|---|---|---|---|---|---|\n",
    );
    for release in RELEASES {
        let newest = Release::newest(release.target) == Some(release);
        let spelled = if newest {
            format!("`{}` = `{}`", release.name(), release.target.name())
        } else {
            format!("`{}`", release.name())
        };
        out.push_str(&format!(
            "| {spelled} | {} | {} | OIS {} (`{}`) | `{}` | {} |\n",
            release.title(),
            release.date,
            release.target.family().name(),
            release.ois_package,
            release.commons_package,
            release.note
        ));
    }
    let default = Target::NEWEST_RELEASED;
    out.push_str(&format!(
        "\nThe default of every command is the newest release: **{}** (`{}`, OIS {}).\n",
        Release::newest(default).map_or_else(|| default.node().title.to_owned(), Release::title),
        default.name(),
        default.ois_format()
    ));
    out
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
        assert_eq!(RELEASES.last().map(|r| r.target), Some(Target::NEWEST_RELEASED));
    }

    #[test]
    fn every_release_is_named_exactly_and_a_major_is_its_newest() {
        for release in RELEASES {
            let spec = TargetSpec::parse(&release.name()).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(spec.release, Some(release));
            assert_eq!(spec.node_version(), release.version);
        }
        let four = TargetSpec::parse("airnode-feed@4").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((four.target, four.node_version()), (Target::AirnodeFeed4, "4.6.0"));
        assert_eq!(TargetSpec::parse("airnode-feed@3").map(|s| s.node_version()), Ok("3.3.0"));
        assert_eq!(TargetSpec::parse("airnode-feed@4.2.0").map(|s| s.name()), Ok("airnode-feed@4.2.0".to_owned()));
        assert_eq!(TargetSpec::parse("airnode@next").map(|s| s.release), Ok(None));
        let unknown = TargetSpec::parse("airnode-feed@4.9.0").err().unwrap_or_default();
        assert!(unknown.contains("airnode-feed@4.6.0"), "{unknown}");
        for target in Target::all() {
            if target.released() {
                assert_eq!(Release::newest(target).map(|r| r.version), Some(target.node_version()), "{target}");
            }
        }
        assert_eq!(Release::of(Target::AirnodeFeed4, "4.0.1").map(|r| r.commons_package), Some("@api3/commons ^1.0.1"));
    }
}
