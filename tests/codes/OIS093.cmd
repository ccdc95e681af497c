# an Airnode Feed config for 4.0.0 checked for the newest Feed 4 (4.6.0), which refuses it
ois validate feed.json --target airnode-feed@4
