# a batch of a folder whose only file is a fragment of a multi-file document
ois convert specs -o out --report json
