package geo

import (
	"strconv"

	geodata "fiplan/data/geo"
	"fiplan/handlers/bytesconv"
	"fiplan/handlers/errcode"
	"fiplan/handlers/rest"
)

// CityID is the grammar of a city id, the {id} of /geo/cities/{id}.
var CityID = rest.NewPathParam("id", geodata.IDPattern, geodata.MaxIDLen, "must be a city id: a slug of the name and the country code, such as lisbon-pt")

func (g *Handlers) lookup(id []byte) (int, bool) {
	i, ok := g.byID[bytesconv.String(id)]
	return i, ok
}

func (g *Handlers) Get(c *rest.Ctx) {
	i, ok := g.lookup(c.Param("id"))
	if !ok {
		c.Error(errcode.NotFound, "no city with id "+strconv.Quote(clip(c.Param("id"))))
		return
	}
	c.SendStatic(g.details[i])
}
