ois convert missing.yaml
