// Placeholder: replaced as the module is tested.
