# a call answered from recordings, and none answers this request: nothing is sent
ois call api.ois.json --endpoint item --param id=1 --secrets secrets.env --replay answers
