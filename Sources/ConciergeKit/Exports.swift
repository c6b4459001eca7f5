/// The wire types (`BookingRequest`, `BookingResponse`, `BookingLocation`, `PricingResponse`,
/// `AuthenticatedCustomer`, …) come with `import ConciergeKit`, as the rides app's code expects.
@_exported public import ConciergeModels
