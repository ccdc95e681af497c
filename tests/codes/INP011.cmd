OIS_MAX_INPUT_BYTES=100 ois convert samples/orders.json
