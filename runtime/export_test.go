package runtime

// TakeReused exposes takeReused to the external tests.
var TakeReused = takeReused
