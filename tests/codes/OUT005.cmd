# the secrets template not filled in: the folder is refused, naming what the Feed needs
ois scaffold deploy config.json --secrets secrets.env -o deployment
