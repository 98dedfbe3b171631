export const LocalServerScreen = () => null;
