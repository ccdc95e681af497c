# three feeds of one endpoint that differ in `_path` (and one in `base`): three triggers, and why
ois convert fx.json -o fx.ois.json
ois endpoint set fx.ois.json latest --reserved _type=int256 --reserved _times=1000000000000000000 --reserved _path
ois scaffold feed fx.ois.json --feed latest:base=string32:USD,_path=string32:rates.EUR --feed latest:base=string32:USD,_path=string32:rates.JPY --feed latest:base=string32:EUR,_path=string32:rates.USD --batch -o config.json
