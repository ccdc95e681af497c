ois convert samples/coins.yaml --include 'GET /a/['
