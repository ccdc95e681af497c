# a text of empty objects: three bytes a value, where each costs more than eighty in memory
OIS_MAX_INPUT_BYTES=4096 ois validate answers.json
