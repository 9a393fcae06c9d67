-- One database per app (database-per-service, docs/api/contract.md §0). The PostgreSQL image runs this once,
-- on an empty volume; each app creates its own tables through its migrations at boot.
CREATE DATABASE media_content;
CREATE DATABASE media_assignment;
CREATE DATABASE media_inventory;
CREATE DATABASE media_commercial;
CREATE DATABASE media_payment;
CREATE DATABASE media_acl;
CREATE DATABASE media_documents;
CREATE DATABASE media_chat_notifications;
