# a new parameter that maps no parameter of the operation
ois endpoint set api.ois.json item --param extra:required
