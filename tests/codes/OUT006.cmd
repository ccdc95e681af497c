# a Feed pushing to a Signed API elsewhere: the folder says where its Signed API is to run
ois scaffold deploy config.json --secrets secrets.env -o deployment
