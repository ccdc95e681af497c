# dropping the parameter that fills the path's {id}
ois endpoint set api.ois.json item --param id:drop
