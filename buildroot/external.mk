include $(sort $(wildcard $(BR2_EXTERNAL_MLDS_PATH)/package/*/*.mk))
