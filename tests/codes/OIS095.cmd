# the feeds answered from a recorded answer, as the node would read it
ois validate metals.ois.json --replay recordings
