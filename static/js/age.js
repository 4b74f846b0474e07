// Re-ages the page's prices on the day it is read (see _age.mjs).
import { refreshAges } from "./_age.mjs";

refreshAges(document, new Date());
