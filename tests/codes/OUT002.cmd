ois convert samples/coins.yaml -o missing-folder/out.json
