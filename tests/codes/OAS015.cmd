# spec/api.json's parameter refers to a file one folder up
ois convert spec/api.json
