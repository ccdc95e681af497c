//! The folder a deployment runs from: each node's `config/` as its package and its image read it
//! (`airnode-feed/config/airnode-feed.json` + `secrets.env`, `signed-api/config/signed-api.json` +
//! `secrets.env`), a Compose file naming the official images at exactly the configs' versions, a
//! `package.json` per node for starting it with Node from the released package, and a README
//! saying how. Every path inside is relative, so the folder can be moved as it is.

use serde_json::{Value, json};

/// Where the Feed's config goes in the folder.
pub const FEED_CONFIG: &str = "airnode-feed/config/airnode-feed.json";
/// Where the Feed's secrets go.
pub const FEED_SECRETS: &str = "airnode-feed/config/secrets.env";
/// Where the Signed API's config goes.
pub const SIGNED_API_CONFIG: &str = "signed-api/config/signed-api.json";
/// Where the Signed API's secrets go.
pub const SIGNED_API_SECRETS: &str = "signed-api/config/secrets.env";

/// How the Feed reaches the Signed API of the folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Wiring {
    /// The Feed pushes to this machine's port: the Signed API listens there, and under Compose the
    /// Feed shares its network, so `localhost` is the same for both.
    Local {
        /// The port of the Feed's `signedApis` URL.
        port: u16,
    },
    /// The Feed pushes elsewhere: the folder's Signed API is the one to run at that URL.
    Remote {
        /// The URL the Feed pushes to.
        url: String,
    },
}

impl Wiring {
    /// How a Feed pushing to `url` reaches the Signed API.
    pub fn of(url: &str) -> Wiring {
        let remote = || Wiring::Remote { url: url.to_owned() };
        let Ok(parsed) = url::Url::parse(url) else { return remote() };
        let local = match parsed.host() {
            Some(url::Host::Domain(domain)) => domain.eq_ignore_ascii_case("localhost"),
            Some(url::Host::Ipv4(address)) => address.is_loopback(),
            Some(url::Host::Ipv6(address)) => address.is_loopback(),
            None => false,
        };
        match (local, parsed.port_or_known_default()) {
            (true, Some(port)) => Wiring::Local { port },
            _ => remote(),
        }
    }
}

/// What the folder's texts say: the two releases and how they are wired.
#[derive(Clone, Debug)]
pub struct Layout {
    /// The Feed's release (`4.6.0`), its config's `nodeVersion`.
    pub feed_version: String,
    /// The Signed API's release, its config's `version`.
    pub signed_api_version: String,
    /// How the Feed reaches the Signed API.
    pub wiring: Wiring,
    /// The names each secrets file holds, for the README: the Feed's, then the Signed API's.
    pub feed_secrets: Vec<String>,
    /// The Signed API's.
    pub signed_api_secrets: Vec<String>,
    /// The token that reads the real-time data, when the Signed API config has one.
    pub read_token: Option<String>,
}

/// `docker-compose.yml`: the official images at the configs' versions, each node's `config/`
/// mounted where its image reads it.
pub fn compose(layout: &Layout) -> String {
    let mut text = String::from(
        "# Airnode Feed and its Signed API, as `ois scaffold deploy` wrote them: `docker compose up -d`.\n",
    );
    text.push_str("# Each image reads its config/ at /app/config (the config file and secrets.env).\nservices:\n");
    let signed_api = format!(
        "  signed-api:\n    image: api3/signed-api:{}\n    init: true\n    restart: unless-stopped\n    volumes:\n      - ./signed-api/config:/app/config:ro\n",
        layout.signed_api_version
    );
    match &layout.wiring {
        Wiring::Local { port } => {
            text.push_str(&signed_api);
            text.push_str(&format!(
                "    environment:\n      SERVER_PORT: \"{port}\"\n    ports:\n      - \"127.0.0.1:{port}:{port}\"\n"
            ));
            text.push_str(&format!(
                "  airnode-feed:\n    image: api3/airnode-feed:{}\n    init: true\n    restart: unless-stopped\n    # The Feed pushes to localhost:{port}: it shares the Signed API's network, so that is the Signed API.\n    network_mode: \"service:signed-api\"\n    depends_on:\n      - signed-api\n    volumes:\n      - ./airnode-feed/config:/app/config:ro\n",
                layout.feed_version
            ));
        }
        Wiring::Remote { url } => {
            text.push_str(&format!(
                "  airnode-feed:\n    image: api3/airnode-feed:{}\n    init: true\n    restart: unless-stopped\n    # The Feed pushes to {url}: run the Signed API there (`docker compose --profile signed-api up -d` on that host).\n    volumes:\n      - ./airnode-feed/config:/app/config:ro\n",
                layout.feed_version
            ));
            text.push_str(&signed_api);
            text.push_str("    profiles: [\"signed-api\"]\n    ports:\n      - \"8090:80\"\n");
        }
    }
    text
}

/// A node's `package.json`: its released package at exactly `version`, and `npm start` running it
/// from this folder, where it reads `config/`.
pub fn package_json(package: &str, version: &str, environment: &str) -> String {
    let start = format!("{environment}node node_modules/@api3/{package}/dist/src/index.js");
    let manifest = json!({
        "name": format!("{package}-deployment"),
        "private": true,
        "description": format!("@api3/{package} {version} with the config/ of this folder"),
        "scripts": {"start": start},
        "dependencies": {format!("@api3/{package}"): version},
    });
    serde_json::to_string_pretty(&manifest).unwrap_or_default() + "\n"
}

/// The folder's `.gitignore`: the secrets never go into version control.
pub const GITIGNORE: &str = "# The secrets of both nodes: never commit them.\n*/config/secrets.env\nnode_modules/\n";

/// The folder's README: what is in it, how to start it with Docker or with Node, what is secret,
/// and how to see that it runs.
pub fn readme(layout: &Layout) -> String {
    let (feed, signed) = (&layout.feed_version, &layout.signed_api_version);
    let mut text = format!(
        "# Airnode Feed {feed} and Signed API {signed}\n\nWritten by `ois scaffold deploy`; every path here is relative, so this folder can be copied to a server as it is.\n\n"
    );
    text.push_str("| file | what |\n|---|---|\n");
    text.push_str(&format!(
        "| `{FEED_CONFIG}` | the Feed's config |\n| `{FEED_SECRETS}` | its secrets: {} |\n",
        listed(&layout.feed_secrets)
    ));
    text.push_str(&format!(
        "| `{SIGNED_API_CONFIG}` | the Signed API's config |\n| `{SIGNED_API_SECRETS}` | its secrets: {} |\n",
        listed(&layout.signed_api_secrets)
    ));
    text.push_str("| `docker-compose.yml` | both nodes from their official images |\n| `*/package.json` | each node from its npm package |\n\n");
    text.push_str("## Keep secret\n\nBoth `secrets.env` files (`.gitignore` keeps them out of git). The Feed's holds the Airnode's mnemonic: whoever has it signs as your Airnode. The push token is one value in both files; the read tokens are who may read your data.\n\n");
    let (url, signed_api_start) = match &layout.wiring {
        Wiring::Local { port } => (format!("http://localhost:{port}"), format!("SERVER_PORT={port} npm start")),
        Wiring::Remote { url } => (url.clone(), "SERVER_PORT=8090 npm start".to_owned()),
    };
    text.push_str(
        "## Start it with Docker\n\n```sh\ndocker compose up -d\ndocker compose logs -f airnode-feed\n```\n\n",
    );
    if let Wiring::Remote { url } = &layout.wiring {
        text.push_str(&format!("The Feed pushes to {url}: run the Signed API there, from this folder (`docker compose --profile signed-api up -d signed-api`, on port 8090 behind your HTTPS proxy).\n\n"));
    }
    text.push_str(&format!(
        "## Or with Node (18.20 or newer)\n\n```sh\n(cd signed-api && npm install && {signed_api_start}) &\n(cd airnode-feed && npm install && npm start)\n```\n\nEach node reads `config/` from the folder it runs in.\n\n"
    ));
    text.push_str(&format!("## See that it runs\n\nThe Signed API answers at {url}; `ois status` checks every beacon: pushed, fresh, signed by your Airnode, and equal to what the API says now:\n\n```sh\nois status {FEED_CONFIG} --secrets {FEED_SECRETS} --signed-api-secrets {SIGNED_API_SECRETS}\n```\n"));
    if let Some(token) = &layout.read_token {
        text.push_str(&format!("\nBy hand: `curl -H \"Authorization: Bearer TOKEN\" {url}/real-time/AIRNODE_ADDRESS`, TOKEN being the value of {token} in `{SIGNED_API_SECRETS}`.\n"));
    }
    text
}

fn listed(names: &[String]) -> String {
    if names.is_empty() {
        "none".to_owned()
    } else {
        names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
    }
}

/// The URL of the Feed's signed API `name` (its only one when `None`).
pub fn pushes_to<'a>(feed: &'a Value, name: Option<&str>) -> Option<&'a str> {
    let listed = feed.get("signedApis")?.as_array()?;
    let chosen = match name {
        Some(name) => listed.iter().find(|api| api.get("name").and_then(Value::as_str) == Some(name))?,
        None if listed.len() == 1 => listed.first()?,
        None => return None,
    };
    chosen.get("url")?.as_str()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_loopback_url_is_wired_to_the_folder_s_signed_api() {
        assert_eq!(Wiring::of("http://127.0.0.1:8090"), Wiring::Local { port: 8090 });
        assert_eq!(Wiring::of("http://localhost"), Wiring::Local { port: 80 });
        assert_eq!(Wiring::of("http://[::1]:3000/"), Wiring::Local { port: 3000 });
        assert!(matches!(Wiring::of("https://signed-api.example.com"), Wiring::Remote { .. }));
        assert!(matches!(Wiring::of("not a url"), Wiring::Remote { .. }));
    }

    #[test]
    fn the_compose_file_names_the_exact_releases_and_mounts_each_config() {
        let layout = Layout {
            feed_version: "4.6.0".into(),
            signed_api_version: "4.6.0".into(),
            wiring: Wiring::Local { port: 8090 },
            feed_secrets: vec![],
            signed_api_secrets: vec![],
            read_token: None,
        };
        let text = compose(&layout);
        for line in [
            "image: api3/airnode-feed:4.6.0",
            "image: api3/signed-api:4.6.0",
            "./airnode-feed/config:/app/config:ro",
            "./signed-api/config:/app/config:ro",
            "SERVER_PORT: \"8090\"",
            "network_mode: \"service:signed-api\"",
        ] {
            assert!(text.contains(line), "{line}: {text}");
        }
        let parsed: Value = yaml_serde::from_str(&text).unwrap();
        assert_eq!(parsed["services"]["signed-api"]["ports"][0], "127.0.0.1:8090:8090");
    }
}
