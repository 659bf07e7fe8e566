package account

import "fiplan/handlers/rest"

// AssetID and KeyID are the grammars of the ids the asset and key routes
// make: the prefix and 26 characters of base32 (a-z, 2-7), 128 random
// bits (owned.NewID).
var (
	AssetID = Assets.ID
	KeyID   = rest.NewPathParam("id", `^key_[a-z2-7]{26}$`, 30, "must be an API key id: key_ and 26 characters of a-z and 2-7")
)
