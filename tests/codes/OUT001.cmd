ois convert samples/coins.yaml -o out.json
