ois convert samples/orders.json --strict --report json
