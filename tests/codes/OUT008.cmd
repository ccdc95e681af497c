# an Airnode config.json made again from one whose template names an endpoint no OIS serves
ois scaffold airnode config.json -o again.json
