# an Airnode config.json made again from itself: its RRP template is kept as it was
ois scaffold airnode config.json -o again.json
