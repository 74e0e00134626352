import { createContext, useContext } from "react";

const NonceContext = createContext<string>("");

/** Provides the request's CSP nonce during server rendering (empty in the browser). */
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
