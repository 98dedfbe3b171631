export const SendRecordsScreen = () => null;
