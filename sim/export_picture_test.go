package sim

// FlightCode and FlightOf expose the packing of a time of flight to the package's external tests.
var (
	FlightCode = flightCode
	FlightOf   = flightOf
)
