# three feeds of one call (a batch): platinum and silver get the same price from the answer
ois call metals.ois.json --all-feeds --replay recordings
