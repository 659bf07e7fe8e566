package account

import (
	"time"

	"fiplan/handlers/owned"
	"fiplan/handlers/schema"
)

// The request and response bodies of the account routes, each declared
// once: its schema tags drive decoding and the OpenAPI document.

// Assets

// assetIn is an asset as a client writes it (POST, PUT, and the shape a
// PATCH merges into).
type assetIn struct {
	Name         string   `json:"name" schema:"required,minLen=1,maxLen=120" doc:"Your name for the asset."`
	Category     string   `json:"category" schema:"enum=@assetClass" doc:"Left out: filled in by the categoriser (see POST /assets/categorize)."`
	ISIN         *string  `json:"isin" schema:"nullable,maxLen=12,format=isin" doc:"ISO 6166 identifier, checked for shape and check digit (upper case). At most one asset per ISIN for each user."`
	Ticker       *string  `json:"ticker" schema:"nullable,minLen=1,maxLen=20"`
	Quantity     *float64 `json:"quantity" schema:"nullable,min=0,max=1e12" doc:"Units held."`
	Value        float64  `json:"value" schema:"required,min=0,max=1e15" doc:"Market value, in currency."`
	Currency     string   `json:"currency" schema:"maxLen=3,format=fxCurrency" doc:"ISO 4217 code of value and costBasis, one of the reference table's currencies. Left out: your settings' base currency."`
	CostBasis    *float64 `json:"costBasis" schema:"nullable,min=0,max=1e15" doc:"What the holding cost, in currency; gives the unrealised gain in the summary."`
	ExpenseRatio *float64 `json:"expenseRatio" schema:"nullable,min=0,max=0.1" doc:"Yearly fund cost as a fraction (0.0022 = 0.22%)."`
	Region       *string  `json:"region" schema:"nullable,enum=@region" doc:"Where the asset invests."`
	AccountType  *string  `json:"accountType" schema:"nullable,enum=@accountType" doc:"The kind of account that holds it."`
	Notes        *string  `json:"notes" schema:"nullable,maxLen=2000"`
}

// asset is an asset as stored and served.
type asset struct {
	ID string `json:"id" schema:"required" doc:"Opaque and unguessable."`
	assetIn
	owned.Times
}

// Parts are what the owned-document layer sets of an asset.
func (a *asset) Parts() (*string, *assetIn, *owned.Times) { return &a.ID, &a.assetIn, &a.Times }

// assetPut is a PUT body: an asset as a client writes it, or as GET
// answered it, whose server-owned fields may come back unchanged.
type assetPut struct {
	assetIn
	owned.Echo
}

// The user's profile, settings and notification preferences are JSON
// documents in the user's bucket. A user who never wrote one reads its
// defaults, which are the schema's declared defaults (schema.Reset), so
// the documentation and the behaviour come from the same tags.

type profile struct {
	DisplayName         *string  `json:"displayName" schema:"nullable,minLen=1,maxLen=80"`
	Email               *string  `json:"email" schema:"nullable,maxLen=254,format=email" doc:"Where email notifications go."`
	CurrentAge          *int     `json:"currentAge" schema:"nullable,min=16,max=120" doc:"Age today; or give birthYear."`
	BirthYear           *int     `json:"birthYear" schema:"nullable,min=1900,max=2100" doc:"Not in the future; within a year of currentAge when both are given."`
	Country             *string  `json:"country" schema:"nullable,maxLen=2,format=country" doc:"ISO 3166-1 alpha-2 code of where you live."`
	City                *string  `json:"city" schema:"nullable,minLen=1,maxLen=100"`
	Currency            *string  `json:"currency" schema:"nullable,maxLen=3,format=fxCurrency" doc:"Your currency: of annualIncome and annualExpenses, and what clients show amounts in. null until you set it: clients then use the tax country's currency."`
	AnnualIncome        *float64 `json:"annualIncome" schema:"nullable,min=0,max=1e12" doc:"Yearly take-home pay."`
	AnnualExpenses      *float64 `json:"annualExpenses" schema:"nullable,min=0,max=1e12" doc:"Yearly spending; sizes your FI number."`
	TargetRetirementAge *int     `json:"targetRetirementAge" schema:"nullable,min=16,max=120" doc:"Not below your current age."`
	RiskTolerance       *string  `json:"riskTolerance" schema:"nullable,enum=@riskTolerance"`
}

type settingsDoc struct {
	BaseCurrency   *string `json:"baseCurrency" schema:"nullable,maxLen=3,format=fxCurrency" doc:"Currency of the asset summary and the FI score, and of new assets that name none. null until set: the profile's currency, else USD."`
	Locale         *string `json:"locale" schema:"nullable,minLen=2,maxLen=35,format=locale" doc:"BCP 47 language tag for the language, numbers and dates of clients. null until set: clients follow the browser's Accept-Language."`
	ExpectedReturn float64 `json:"expectedReturn" schema:"min=-0.5,max=0.5,default=0.07" doc:"Default nominal yearly return for projections."`
	InflationRate  float64 `json:"inflationRate" schema:"min=-0.1,max=0.5,default=0.03"`
	WithdrawalRate float64 `json:"withdrawalRate" schema:"min=0.0001,max=0.2,default=0.04" doc:"Safe withdrawal rate, 0.0001 to 0.2 (the calculator's bounds): the FI number is annual expenses divided by it."`
	Units          string  `json:"units" schema:"enum=metric|imperial,default=metric"`
}

type channels struct {
	Email bool `json:"email" schema:"default=true"`
	Push  bool `json:"push" schema:"default=true"`
}

type optIn struct {
	Email bool `json:"email" schema:"default=false"`
	Push  bool `json:"push" schema:"default=false"`
}

type notifications struct {
	Milestones    channels `json:"milestones" doc:"FI progress milestones (25%, 50%, 75%, FI reached): email chooses whether fi.reached is mailed. Default: on, both channels."`
	Checkins      channels `json:"checkins" doc:"A saved plan's yearly check-in falling due: email chooses whether checkin.due is mailed. Default: on, both channels; a document stored without it takes milestones' email switch."`
	Guardrails    channels `json:"guardrails" doc:"A check-in's withdrawal rate leaving the plan's guardrail band: email chooses whether guardrail.crossed is mailed. Default: on, both channels; a document stored without it takes milestones' email switch."`
	OffTrack      channels `json:"offTrack" doc:"Your portfolio straying from a saved plan's path: email chooses whether plan.offtrack is mailed. Default: on, both channels; a document stored without it takes milestones' email switch."`
	DataUpdates   channels `json:"dataUpdates" doc:"New tax or city data changing a saved plan's answer: email chooses whether data.updated is mailed. Default: on, both channels; a document stored without it takes milestones' email switch."`
	WeeklySummary optIn    `json:"weeklySummary" doc:"A weekly portfolio summary. Default: off."`
	ProductNews   optIn    `json:"productNews" doc:"News about fiplan. Default: off."`
}

// Export and erasure

type accountInfo struct {
	Tier      string    `json:"tier" schema:"enum=free|pro"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

type exportData struct {
	ExportedAt    time.Time          `json:"exportedAt" schema:"required"`
	User          string             `json:"user" schema:"required" doc:"Your user id (the token's subject)."`
	Account       *accountInfo       `json:"account" schema:"required,nullable" doc:"null when nothing is stored."`
	Profile       *profile           `json:"profile" schema:"required,nullable" doc:"null when never written (GET /user/profile then answers the defaults)."`
	Settings      *settingsDoc       `json:"settings" schema:"required,nullable"`
	Notifications *notifications     `json:"notifications" schema:"required,nullable"`
	Assets        []asset            `json:"assets" schema:"required"`
	Plans         []exportedPlan     `json:"plans" schema:"required" doc:"Your saved plans, oldest first, as GET /plans/{id} answers them."`
	APIKeys       []apiKey           `json:"apiKeys" schema:"required" doc:"Key metadata; a key itself is never stored."`
	Flags         []flagExposure     `json:"featureFlags" schema:"required" doc:"The variant each feature flag assigned you, as recorded for its statistics."`
	Series        []seriesFull       `json:"series" schema:"required" doc:"Your return series, oldest first, with their rows, as GET /user/series/{id} answers them."`
	Webhooks      []exportedHook     `json:"webhooks" schema:"required" doc:"Your webhook endpoints, oldest first, without their signing secrets."`
	Events        []exportedEvent    `json:"events" schema:"required" doc:"The events raised about you, newest first, as GET /user/events answers them."`
	Deliveries    []exportedDelivery `json:"deliveries" schema:"required" doc:"The webhook delivery log, newest first, as GET /user/deliveries answers it."`
}

// exportedHook is a webhook endpoint as the export lists it (handlers/hooks
// serves and keeps it): never its secret.
type exportedHook struct {
	ID        string    `json:"id"`
	URL       string    `json:"url"`
	Events    []string  `json:"events"`
	CreatedAt time.Time `json:"createdAt"`
}

// exportedDelivery is a webhook delivery as the export lists it.
type exportedDelivery struct {
	ID         string    `json:"id"`
	EventID    string    `json:"eventId"`
	EventType  string    `json:"eventType"`
	WebhookID  string    `json:"webhookId"`
	Status     string    `json:"status"`
	Attempts   int       `json:"attempts"`
	NextAt     time.Time `json:"nextAt"`
	LastStatus int       `json:"lastStatus"`
	LastError  string    `json:"lastError"`
	CreatedAt  time.Time `json:"createdAt"`
	UpdatedAt  time.Time `json:"updatedAt"`
}

// exportedEvent is an event as the export lists it.
type exportedEvent struct {
	ID        string           `json:"id"`
	Type      string           `json:"type"`
	CreatedAt time.Time        `json:"createdAt"`
	PlanID    string           `json:"planId,omitempty"`
	Data      schema.RawObject `json:"data"`
}

// exportedPlan is a saved plan as the export lists it (handlers/plans
// serves and keeps it).
type exportedPlan struct {
	ID        string           `json:"id"`
	Name      string           `json:"name"`
	Input     schema.RawObject `json:"input" doc:"The calculator body saved."`
	Checkin   string           `json:"checkinDate,omitempty" doc:"The yearly check-in date, MM-DD, when set."`
	CreatedAt time.Time        `json:"createdAt"`
	UpdatedAt time.Time        `json:"updatedAt"`
}

type flagExposure struct {
	Key     string `json:"key"`
	Variant string `json:"variant" doc:"Empty when the flag has no variants."`
}

// GET /fi-score: the caller's FI score (compute/fiscore) from their stored
// profile, settings and assets.

type scoreComponent struct {
	Name  string `json:"name" schema:"required"`
	Score int    `json:"score" schema:"required"`
	Max   int    `json:"max" schema:"required"`
}

type scoreRecommendation struct {
	Priority int    `json:"priority" schema:"required"`
	Title    string `json:"title" schema:"required"`
	Detail   string `json:"detail" schema:"required"`
}

type scoreHealth struct {
	Score           int                   `json:"score" schema:"required" doc:"The portfolio-health score, 0-1000."`
	Components      []scoreComponent      `json:"components" schema:"required"`
	Recommendations []scoreRecommendation `json:"recommendations" schema:"required" doc:"The three most valuable, best first."`
}

type scoreInputs struct {
	Age                 *int     `json:"age" schema:"required,nullable"`
	AnnualIncome        *float64 `json:"annualIncome" schema:"required,nullable" doc:"In the base currency."`
	AnnualExpenses      *float64 `json:"annualExpenses" schema:"required,nullable" doc:"In the base currency."`
	TargetRetirementAge *int     `json:"targetRetirementAge" schema:"required,nullable"`
	RiskTolerance       *string  `json:"riskTolerance" schema:"required,nullable"`
	ExpectedReturn      float64  `json:"expectedReturn" schema:"required" doc:"From your settings."`
	InflationRate       float64  `json:"inflationRate" schema:"required"`
	WithdrawalRate      float64  `json:"withdrawalRate" schema:"required"`
	Assets              int      `json:"assets" schema:"required"`
	ExchangeRatesAsOf   string   `json:"exchangeRatesAsOf" schema:"required"`
}

type missingInput struct {
	Field string `json:"field" schema:"required" doc:"Where to set it, such as profile.annualExpenses."`
	Why   string `json:"why" schema:"required"`
}

type fiScoreData struct {
	Score           int              `json:"score" schema:"required" doc:"0-1000: the sum of the components."`
	Components      []scoreComponent `json:"components" schema:"required"`
	Currency        string           `json:"currency" schema:"required" doc:"The base currency of your settings."`
	NetWorth        float64          `json:"netWorth" schema:"required" doc:"The value of your assets; without assets and with a plan scored, the plan's savings."`
	FINumber        *float64         `json:"fiNumber" schema:"required,nullable" doc:"Annual expenses / withdrawal rate; null without annual expenses. With a plan scored, the FI number its run aims at (after tax when taxed)."`
	Progress        *float64         `json:"progress" schema:"required,nullable" doc:"Net worth / FI number."`
	YearsToFI       *int             `json:"yearsToFI" schema:"required,nullable" doc:"0 when already FI; null when never within the horizon or unknown."`
	FIAge           *int             `json:"fiAge" schema:"required,nullable"`
	PortfolioHealth *scoreHealth     `json:"portfolioHealth" schema:"required,nullable" doc:"null without assets."`
	Inputs          scoreInputs      `json:"inputs" schema:"required" doc:"What the score was computed from."`
	Missing         []missingInput   `json:"missing" schema:"required" doc:"What would make the score more exact; empty when nothing is missing."`
	Plan            *scoredPlan      `json:"plan" schema:"required,nullable" doc:"The saved plan scored; null when the score is the profile's (no saved plan, or ?plan=none)."`
}

type scoredPlan struct {
	ID        string    `json:"id" schema:"required"`
	Name      string    `json:"name" schema:"required"`
	UpdatedAt time.Time `json:"updatedAt" schema:"required" doc:"When the plan was last saved."`
}

// Summary and categorisation of the caller's assets.

type share struct {
	Key   string  `json:"key" schema:"required"`
	Value float64 `json:"value" schema:"required" doc:"In the base currency."`
	Share float64 `json:"share" schema:"required" doc:"Fraction of the total value (0 when the total is 0)."`
}

type rateUsed struct {
	Currency string  `json:"currency" schema:"required"`
	Rate     float64 `json:"rate" schema:"required" doc:"Units of this currency per unit of the base currency."`
}

type fxInfo struct {
	AsOf   string     `json:"asOf" schema:"required" doc:"Date of the reference rates (YYYY-MM-DD)."`
	Source string     `json:"source" schema:"required"`
	Rates  []rateUsed `json:"rates" schema:"required" doc:"The rate of each currency the assets are held in."`
}

type summaryData struct {
	Currency             string   `json:"currency" schema:"required" doc:"The base currency of your settings; every amount is in it."`
	Assets               int      `json:"assets" schema:"required"`
	TotalValue           float64  `json:"totalValue" schema:"required"`
	ByCategory           []share  `json:"byCategory" schema:"required"`
	ByCurrency           []share  `json:"byCurrency" schema:"required" doc:"Keyed by the currency an asset is held in."`
	ByRegion             []share  `json:"byRegion" schema:"required" doc:"\"unspecified\" for assets without a region."`
	ByAccountType        []share  `json:"byAccountType" schema:"required" doc:"\"unspecified\" for assets without an account type."`
	ExpenseRatio         *float64 `json:"expenseRatio" schema:"required,nullable" doc:"Value-weighted over the assets with a stated ratio; null when none has one."`
	ExpenseRatioCoverage float64  `json:"expenseRatioCoverage" schema:"required" doc:"Share of the total value whose expense ratio is stated."`
	CostBasis            *float64 `json:"costBasis" schema:"required,nullable" doc:"Sum over the assets with a known cost basis; null when none."`
	UnrealisedGain       *float64 `json:"unrealisedGain" schema:"required,nullable" doc:"Value minus cost basis over the same assets."`
	CostBasisCoverage    float64  `json:"costBasisCoverage" schema:"required" doc:"Share of the total value whose cost basis is known."`
	ExchangeRates        fxInfo   `json:"exchangeRates" schema:"required"`
}

// API keys

type keyCreate struct {
	Name string `json:"name" schema:"required,minLen=1,maxLen=64" doc:"A label to recognise the key by, such as the integration's name."`
}

type createdKey struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	Hint      string    `json:"hint"`
	CreatedAt time.Time `json:"createdAt"`
	Key       string    `json:"key" doc:"The key itself. It is shown only in this response: store it now."`
}

// apiKey is a key as the API lists it: never the secret, never the owner.
// It is the API's shape, kept apart from the stored record.
type apiKey struct {
	ID         string    `json:"id"`
	Name       string    `json:"name"`
	Hint       string    `json:"hint" doc:"The key's first and last characters, to recognise it by."`
	CreatedAt  time.Time `json:"createdAt"`
	LastUsedAt time.Time `json:"lastUsedAt,omitzero" doc:"Absent until the key is first used; recorded within 30 seconds of a use."`
}
