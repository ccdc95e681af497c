# a feed by name on an operation the API's new document no longer has
ois convert vendor.json -o api.ois.json
ois feed add api.ois.json AAVE/USD --operation 'GET /tickers/{coin_id}' --param coin_id=aave --value price
ois convert vendor-without-tickers.json --update api.ois.json
