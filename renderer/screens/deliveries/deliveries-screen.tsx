export const DeliveriesScreen = () => null;
