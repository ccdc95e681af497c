# a config validated as the command line does it: the help names its flags
ois validate config.json
