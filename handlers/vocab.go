package handlers

import (
	"fiplan/data/geo"
	"fiplan/handlers/schema"
)

// vocabulary names every enum and format that request and response
// declarations refer to (enum=@name, format=name), once: a second
// definition of a name fails start-up.
func vocabulary() (*schema.Vocabulary, error) {
	v := schema.NewVocabulary().
		Enum("geoRegion", geo.Regions).
		Enum("climateBand", geo.ClimateBands).
		Enum("englishBand", geo.EnglishBands)
	return v, v.Err()
}
