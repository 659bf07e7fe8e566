package handlers

import (
	"fiplan/compute/tax"
	"fiplan/data/geo"
	"fiplan/data/program"
	"fiplan/handlers/schema"
)

// vocabulary names every enum and format that request and response
// declarations refer to (enum=@name, format=name), once: a second
// definition of a name fails start-up.
func vocabulary() (*schema.Vocabulary, error) {
	parts := make([]string, tax.NumParts)
	for p := range parts {
		parts[p] = tax.Part(p).String()
	}
	v := schema.NewVocabulary().
		Enum("geoRegion", geo.Regions).
		Enum("climateBand", geo.ClimateBands).
		Enum("englishBand", geo.EnglishBands).
		Enum("taxIncomePart", parts).
		Enum("taxCategory", tax.CategoryNames).
		Enum("taxLineKind", tax.KindNames).
		Enum("programScope", names(program.Scopes)).
		Enum("programRuleType", names(program.RuleTypes)).
		Enum("programKind", names(program.Kinds))
	return v, v.Err()
}

func names[T ~string](list []T) []string {
	out := make([]string, len(list))
	for i, v := range list {
		out[i] = string(v)
	}
	return out
}
