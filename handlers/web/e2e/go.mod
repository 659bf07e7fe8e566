// A module of its own, so that node_modules (flatted ships Go files) stays
// out of fiplan's ./... in go build, vet, test and golangci-lint.
module fiplan-web-e2e

go 1.26.0
